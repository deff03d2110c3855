"""The edge's background work, started and stopped by the app's cleanup contexts: the
rating outbox's and the archive outbox's hand-overs, the moderation watch, the health
watch, and the reconcile commands. Tasks never import the REST API."""
