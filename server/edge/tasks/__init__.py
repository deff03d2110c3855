"""The edge's background work, started and stopped by the app's cleanup contexts: the
rating outbox's hand-over, the moderation watch, the health watch, and the reconcile
command. Tasks never import the REST API."""
