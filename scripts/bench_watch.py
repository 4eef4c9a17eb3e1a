"""What the daemon benchmarks time tag links with (scripts/bench-daemon.py,
scripts/bench-fanout.py): a `watch` stream telling when each photo_tag link of a zone arrived
at a daemon, and a round that adds a tag at one daemon and reads the streams until it arrives."""
import json, selectors, socket, time


class Refused(RuntimeError):
    """A control request the daemon answered with an error (its `code` kept)."""

    def __init__(self, command, error):
        super().__init__(f"{command}: {error}")
        self.code = (error or {}).get("code")


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


def one_round(writer, watches, photo, name, timeout, awaited=None):
    """Adds tag `name` at the writer; returns (response s, arrival s per watch or None).
    The round ends when every watch of `awaited` (default: all) has seen it, or at `timeout`;
    every watch is read meanwhile."""
    awaited = watches if awaited is None else awaited
    sel = selectors.DefaultSelector()
    for w in watches:
        sel.register(w.sock, selectors.EVENT_READ, w)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(writer.sock)
    conn.setblocking(False)
    sel.register(conn, selectors.EVENT_READ, None)
    request = json.dumps({"id": 1, "command": "tag.add", "args": {"photo": photo, "name": name}}) + "\n"
    reply, link, responded = b"", None, None
    t_send = time.monotonic()
    conn.sendall(request.encode())
    deadline = t_send + timeout
    try:
        while True:
            if link and all(link in w.links for w in awaited):
                break
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for key, _ in sel.select(left):
                now = time.monotonic()
                if key.data is not None:
                    key.data.read(now)
                    continue
                chunk = conn.recv(65536)
                if not chunk:
                    raise RuntimeError(f"{writer.name}: tag.add: connection closed without an answer")
                reply += chunk
                if reply.endswith(b"\n"):
                    resp = json.loads(reply)
                    if not resp.get("ok"):
                        raise Refused(f"{writer.name}: tag.add", resp.get("error"))
                    responded = now - t_send
                    link = f"{photo}/{resp['result']['id']}"
                    sel.unregister(conn)
                    conn.close()  # an open control connection sending nothing is closed after 10 s
    finally:
        sel.close()
        conn.close()
    if link is None:
        raise TimeoutError(f"{writer.name} did not answer tag.add within {timeout} s")
    arrivals = [w.links[link] - t_send if link in w.links else None for w in watches]
    return responded, arrivals
