"use strict";
// The replay page: draws one frame of the embedded data at a time. Everything it shows comes
// from the data (seats, pieces, marks, words); it knows no game.
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  const M = D.meta, P = D.pieces, MARKS = D.marks;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"})[c]);
  let gi = 0, fi = 0;

  // pips on a 3x3 grid (index = row * 3 + column); numbers past 9 are written as numerals
  const PIPS = [[], [4], [2, 6], [2, 4, 6], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8],
    [0, 2, 3, 4, 5, 6, 8], [0, 1, 2, 3, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 8]];

  function half(n, x, y, s) {
    if (n >= PIPS.length) {
      return `<text class="num" x="${x + s / 2}" y="${y + s / 2 + 4}" text-anchor="middle" font-size="${s * 0.55}">${n}</text>`;
    }
    const r = s * 0.085;
    return PIPS[n].map((i) => `<circle class="pip" cx="${x + s * (0.22 + 0.28 * (i % 3))}" cy="${y + s * (0.22 + 0.28 * Math.floor(i / 3))}" r="${r}"/>`).join("");
  }

  // the marks a piece carries in the frame shown, in drawing order (later drawn over earlier)
  function marksOf(pid, mk) {
    const sets = game().marks[mk] || [];
    return MARKS.filter((m, i) => (sets[i] || []).includes(pid));
  }

  function rings(ms, x, y, w, h) {
    return ms.map((m) => `<rect class="ring ring-${m.ring}" data-mark="${esc(m.name)}" data-ring="${m.ring}" x="${x}" y="${y}" width="${w}" height="${h}" rx="5" stroke="${m.colour}"${m.ring === "dashed" ? " stroke-dasharray=\"5 3\"" : ""}/>`).join("");
  }

  // a domino's inner drawing at (x, y): a then b, left to right (or top to bottom if vertical)
  function dominoBody(a, b, x, y, s, vertical) {
    const w = vertical ? s : 2 * s, h = vertical ? 2 * s : s;
    let out = `<rect class="tile" x="${x}" y="${y}" width="${w}" height="${h}" rx="3"/>`;
    if (vertical) {
      out += `<line x1="${x + 3}" y1="${y + s}" x2="${x + s - 3}" y2="${y + s}" stroke="#555"/>`;
      out += half(a, x, y, s) + half(b, x, y + s, s);
    } else {
      out += `<line x1="${x + s}" y1="${y + 3}" x2="${x + s}" y2="${y + s - 3}" stroke="#555"/>`;
      out += half(a, x, y, s) + half(b, x + s, y, s);
    }
    return out;
  }

  function cardBody(p, x, y, w, h) {
    const red = /[\u2665\u2666\u2661\u2662]/.test(p.s) ? " red" : "";
    let out = `<rect class="card${p.t ? " trump" : ""}" x="${x}" y="${y}" width="${w}" height="${h}" rx="5"/>`;
    if (p.t) {
      const fs = Math.min(h * 0.42, (w * 1.5) / Math.max(p.f.length, 1));
      out += `<text class="face" x="${x + w / 2}" y="${y + h / 2 + fs / 3}" text-anchor="middle" font-size="${fs.toFixed(1)}">${esc(p.f)}</text>`;
      if (p.s) out += `<text class="face${red}" x="${x + w / 2}" y="${y + h - 5}" text-anchor="middle" font-size="10">${esc(p.s)}</text>`;
    } else {
      out += `<text class="face${red}" x="${x + 4}" y="${y + 13}" font-size="12">${esc(p.f)}</text>`;
      out += `<text class="face${red}" x="${x + w / 2}" y="${y + h / 2 + 10}" text-anchor="middle" font-size="24">${esc(p.s)}</text>`;
    }
    return out;
  }

  // one piece as its own small picture, with its rings
  function pieceSvg(pid, mk, s) {
    const p = P[pid], ms = marksOf(pid, mk);
    const names = ms.map((m) => m.name).join(" ");
    const label = p.n + (ms.length ? " (" + ms.map((m) => m.description || m.name).join("; ") + ")" : "");
    let w, h, body;
    if (M.kind === "cards") {
      w = 44; h = 62; body = cardBody(p, 3, 3, w - 6, h - 6);
    } else {
      w = 2 * s + 6; h = s + 6; body = dominoBody(p.e[0], p.e[1], 3, 3, s, false);
    }
    return `<svg class="piece" data-piece="${esc(p.n)}" data-marks="${esc(names)}" role="img" aria-label="${esc(label)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><title>${esc(label)}</title>${body}${rings(ms, 1.5, 1.5, w - 3, h - 3)}</svg>`;
  }

  // the layout as a cross: the line west to east, the spinner's arms up and down from it
  function layoutSvg(ly, mk) {
    const s = 24, items = [];
    let x = 0;
    const xs = [];
    ly.line.forEach(([pid, a, b]) => {
      const dbl = a === b, w = dbl ? s : 2 * s, h = dbl ? 2 * s : s;
      xs.push(x);
      items.push({pid, a, b, x, y: -h / 2, vertical: dbl, w, h});
      x += w + 2;
    });
    if (ly.spin >= 0) {
      const sp = items[ly.spin];
      const cx = sp.x + sp.w / 2;
      ly.arms.forEach(([name, pieces], k) => {
        const up = k % 2 === 0;
        // a third arm and beyond (a ruleset's spinner_arms): beside the first two, a piece's
        // length further along the line each pair, so no arm is drawn over another
        const ax = cx + Math.floor(k / 2) * (2 * s + 4);
        let edge = up ? sp.y - 2 : sp.y + sp.h + 2;
        pieces.forEach(([pid, a, b]) => {
          const dbl = a === b, w = dbl ? 2 * s : s, h = dbl ? s : 2 * s;
          const y = up ? edge - h : edge;
          // near end toward the spinner: on the bottom going up, on top going down
          items.push({pid, a: up ? b : a, b: up ? a : b, x: ax - w / 2, y, vertical: !dbl, w, h});
          edge = up ? y - 2 : y + h + 2;
        });
      });
    }
    const minX = Math.min(...items.map((i) => i.x)) - 4, maxX = Math.max(...items.map((i) => i.x + i.w)) + 4;
    const minY = Math.min(...items.map((i) => i.y)) - 4, maxY = Math.max(...items.map((i) => i.y + i.h)) + 4;
    const body = items.map((i, n) => {
      const ms = marksOf(i.pid, mk);
      const spin = n === ly.spin ? " data-spinner=\"1\"" : "";
      return `<g class="piece" data-piece="${esc(P[i.pid].n)}" data-marks="${esc(ms.map((m) => m.name).join(" "))}"${spin}><title>${esc(P[i.pid].n)}${n === ly.spin ? " (spinner)" : ""}</title>` +
        dominoBody(i.a, i.b, i.x, i.y, s, i.vertical) + rings(ms, i.x - 1.5, i.y - 1.5, i.w + 3, i.h + 3) + "</g>";
    }).join("");
    const W = maxX - minX, H = maxY - minY;
    return `<svg class="layout" width="${W}" height="${H}" viewBox="${minX} ${minY} ${W} ${H}" role="img" aria-label="The layout">${body}</svg>`;
  }

  const game = () => D.games[gi];
  const frame = () => game().frames[fi];
  const seat = (i) => M.seats[i] !== undefined ? M.seats[i] : "seat " + i;

  function drawBar(f) {
    const hand = game().hands[f.hi];
    const parts = M.sides.map((name, i) => {
      const pts = f.pt ? ` <span class="what">this hand</span> <span class="points">${f.pt[i]}</span>` : "";
      const tk = f.tk ? ` <span class="what">tricks</span> <span class="tricks">${f.tk[i]}</span>` : "";
      const sd = f.sd ? ` <span class="what">scored</span> <span class="scored">${f.sd[i]}</span>` : "";
      const bidder = f.by !== undefined && f.by >= 0 && M.side_of[f.by] === i ? " bidder" : "";
      return `<span class="side${bidder}" data-side="${i}">${esc(name)} <span class="score">${f.sc[i]}</span>${pts}${tk}${sd}</span>`;
    });
    // while the auction is on, the standing bid is the high bid so far, not yet the contract's
    const bidWord = f.ph === "auction" ? "high bid so far" : "bid";
    const bid = !M.auction ? "" : f.bd !== undefined ? `<span class="bid"><span class="what">${bidWord}</span> <b>${esc(f.bd)}</b>${f.by !== undefined && f.by >= 0 ? " by " + esc(seat(f.by)) : ""}</span>` : `<span class="bid what">no bid yet</span>`;
    const ct = f.ct ? `<span class="contract">${esc(f.ct)}</span>` : "";
    const dc = Object.keys(f.dc || {}).sort().map((k) => `<span class="decl" data-decl="${esc(k)}"><span class="what">${esc((M.decl_names || {})[k] || k.replace(/_/g, " "))}</span> <b>${esc(f.dc[k])}</b></span>`).join(" ");
    const cp = f.cp ? `<span class="chips"><span class="what">chips</span> ${f.cp.map((c, i) => esc(seat(i)) + " " + c).join(", ")}</span>` : "";
    const sk = f.sk !== undefined ? `<span class="stock"><span class="what">stock</span> ${f.sk}</span>` : "";
    $("bar").innerHTML = `<span class="hand">Hand ${hand.n}</span>` + parts.join("") + bid + ct + dc + cp + sk;
  }

  function drawSeats(f) {
    const s = 24;
    $("seats").innerHTML = f.hs.map((pieces, i) => {
      const tags = [];
      if (game().hands[f.hi].dealer === i) tags.push("dealer");
      if (f.by === i) tags.push(f.ph === "auction" ? "high bid so far" : "bidder");
      if (f.tu === i) tags.push("to " + (f.ph || "play"));
      const body = pieces.length ? pieces.map((pid) => pieceSvg(pid, f.mk, s)).join("") : `<span class="none">no pieces</span>`;
      return `<div class="seat${f.tu === i ? " turn" : ""}" data-seat="${i}"><span class="name">${esc(seat(i))}</span><span class="tags">${esc(M.sides[M.side_of[i]])}${tags.length ? " \u00b7 " + esc(tags.join(", ")) : ""}</span><div class="pieces">${body}</div></div>`;
    }).join("");
  }

  function drawBoard(f) {
    if (f.ly) {
      const board = $("board");
      board.innerHTML = layoutSvg(f.ly, f.mk);
      // a long line shrinks to fit down to 60% of its size, then scrolls
      const svg = board.querySelector("svg"), w = Number(svg.getAttribute("width"));
      svg.style.width = Math.min(w, Math.max(board.clientWidth - 28, w * 0.6)) + "px";
    } else if (f.tr && f.tr.length) {
      const winner = f.wn ? f.wn[0] : -1;
      const latest = f.tr.length - 1;  // the piece just played: outlined, and marked in words
      $("board").innerHTML = `<div class="trick">` + f.tr.map(([s, pid], k) =>
        `<div class="play${s === winner ? " winner" : ""}${k === latest && !f.wn ? " last" : ""}" data-seat="${s}">${pieceSvg(pid, f.mk, 26)}<div class="who">${esc(seat(s))}</div></div>`).join("") +
        (f.wn ? `<div class="play taken">${esc(seat(winner))} takes ${f.wn[1]}</div>` : "") + `</div>`;
    } else {
      $("board").innerHTML = `<div class="empty">${f.la ? "" : "the deal"}</div>`;
    }
  }

  function drawAuction(f) {
    if (!M.auction && !M.calls) return;  // no auction and no call: no such section
    const calls = game().hands[f.hi].calls.slice(0, f.nc);
    $("auction").innerHTML = calls.length ? calls.map(([s, what, ph]) =>
      `<li data-phase="${esc(ph)}"${f.by === s && ph === "auction" && what !== "pass" ? " class=\"won\"" : ""}>${esc(seat(s))}: ${esc(what)}</li>`).join("") : `<li class="none">none yet</li>`;
  }

  function show() {
    const g = game(), f = frame();
    drawBar(f); drawSeats(f); drawBoard(f); drawAuction(f);
    $("words").textContent = f.t;
    $("slider").max = g.frames.length - 1;
    $("slider").value = fi;
    $("step").textContent = `step ${fi + 1} of ${g.frames.length}`;
    $("prev").disabled = fi === 0;
    $("next").disabled = fi === g.frames.length - 1;
  }

  function go(k) { fi = Math.max(0, Math.min(game().frames.length - 1, k)); show(); }
  function hand(d) {
    const fr = game().frames, h = fr[fi].hi;
    let k = fi;
    if (d > 0) { while (k < fr.length - 1 && fr[k].hi === h) k++; }
    else {
      const start = fr.findIndex((x) => x.hi === h);
      k = fi > start ? start : Math.max(0, fr.findIndex((x) => x.hi === h - 1));
    }
    go(k);
  }

  $("title").textContent = M.title;
  // the side panel's calls: the auction's and the others' (a declaration, the stock), under
  // the heading of what the game has; none at all for a game with neither (a layout game)
  if (!M.auction) $("calls").textContent = "Calls";
  $("calls").hidden = $("auction").hidden = !M.auction && !M.calls;
  $("about").textContent = `${M.canonical} \u00b7 seed ${M.seed} \u00b7 agents ${M.agents.join(", ")}` +
    (M.shown < M.games_in_record ? ` \u00b7 games ${D.games[0].game} to ${D.games[M.shown - 1].game} of ${M.games_in_record}` : "");
  $("game").innerHTML = D.games.map((g, i) => `<option value="${i}">${g.game}</option>`).join("");
  $("game").onchange = (e) => { gi = Number(e.target.value); fi = 0; show(); };
  const [lw, lh] = M.kind === "cards" ? [28, 38] : [54, 30];
  $("legend").innerHTML = MARKS.map((m) => `<li data-mark="${esc(m.name)}"><svg width="${lw}" height="${lh}" viewBox="0 0 ${lw} ${lh}"><rect class="${M.kind === "cards" ? "card" : "tile"}" x="3" y="3" width="${lw - 6}" height="${lh - 6}" rx="4"/>${rings([m], 1.5, 1.5, lw - 3, lh - 3)}</svg><span>${esc(m.description || m.name)} <span class="what">(${m.ring} ring)</span></span></li>`).join("") +
    (MARKS.length > 1 ? `<li><span class="what">A piece with both: the later ring drawn over the earlier.</span></li>` : "");
  $("prev").onclick = () => go(fi - 1);
  $("next").onclick = () => go(fi + 1);
  $("prevhand").onclick = () => hand(-1);
  $("nexthand").onclick = () => hand(1);
  $("slider").oninput = (e) => go(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "SELECT") return;
    const keys = {ArrowRight: () => go(fi + 1), ArrowLeft: () => go(fi - 1), Home: () => go(0),
      End: () => go(game().frames.length - 1), PageDown: () => hand(1), PageUp: () => hand(-1)};
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  show();
})();
