"""Placeholder: the nn dialect is being written."""

from xdsl.ir import Dialect

NN = Dialect("nn", [], [])
