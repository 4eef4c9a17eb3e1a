"""The `watch` stream the daemon benchmarks time tag links with (scripts/bench-daemon.py,
scripts/bench-fanout.py): when each photo_tag link of a zone arrived at a daemon."""
import json, socket


class Watch:
    """A `watch` stream of history events on a daemon's control socket (`daemon.sock`, named
    `daemon.name` in errors): when each tag link (photo_tag) of `zone` arrived there."""

    def __init__(self, daemon, zone):
        self.daemon, self.zone = daemon, zone
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(20)
        self.sock.connect(daemon.sock)
        self.sock.sendall(b'{"id": "w", "command": "watch", "args": {"types": ["history"]}}\n')
        self.buf = b""
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError(f"{daemon.name}: watch closed at once")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        if not json.loads(line).get("ok"):
            raise RuntimeError(f"{daemon.name}: watch refused: {line!r}")
        self.sock.setblocking(False)
        self.links = {}  # photo_tag ID -> monotonic time its history event was read

    def read(self, now):
        """Takes what the stream holds; `now` dates the links first seen in it."""
        try:
            chunk = self.sock.recv(1 << 20)
        except BlockingIOError:
            return
        if not chunk:
            raise RuntimeError(f"{self.daemon.name}: its watch stream ended")
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            event = json.loads(line).get("event") or {}
            if event.get("type") != "history":
                continue
            for change in event["data"].get("changes", []):
                if change.get("entity") == "photo_tag" and change.get("zone") == self.zone:
                    self.links.setdefault(change["id"], now)

    def close(self):
        self.sock.close()
