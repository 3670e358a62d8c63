"""The frozen game definition, below both the compiler that builds it and the engine that runs it."""

from .actions import FIXED_NAMES, ActionSpace, build_actions, value_str
from .game import (CHUNK, CHUNK_MASK, AuctionDef, BidDef, Bounds, ContractDef, Declaration,
                   DeclareStep, ExchangeDef, GameDef, LayoutDef, MarkDef, MatchDef, Pieces, PlayDef,
                   TrickTables)

__all__ = ["FIXED_NAMES", "ActionSpace", "build_actions", "value_str", "CHUNK", "CHUNK_MASK",
           "AuctionDef", "BidDef", "Bounds", "ContractDef", "Declaration", "DeclareStep",
           "ExchangeDef", "GameDef", "LayoutDef", "MarkDef", "MatchDef", "Pieces", "PlayDef",
           "TrickTables"]
