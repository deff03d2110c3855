"""Small example programs that speak the protocol (see docs/CLIENTS.md)."""
