"""What the chaos run wrote, and what must therefore hold at the end.

Every write goes through the real CLI, one at a time, so the writes form one sequence in
real time (their `seq`). A write is *acknowledged* when its CLI exited 0, *unknown* when its
daemon was killed while it was in flight (it may or may not have happened), and *refused*
when the daemon answered with an error (a refused request changes nothing, so it is not
recorded here).

Why issue order is the order that decides (docs/REPLICATION.md): every field is
last-writer-wins by hybrid-logical-clock stamp. Both daemons run on the same machine and
clock, a stamp is at least the wall clock in milliseconds, and consecutive CLI commands are
milliseconds apart (each is a process start), so a write issued later carries a higher
stamp than every write issued before it on either daemon, whether or not its daemon had
seen them. Two cases need care, and the expectations below only assert what holds in every
"possible world" (each unknown write happened or not):

- `tag add` of a name the photo already carries (as its daemon sees it) changes nothing
  and writes no stamp, so an acknowledged tagging only proves "tagged as this daemon saw
  it". A tagging therefore beats a removal for sure only when it came from the removal's own
  daemon, after the removal.
- `tag remove` of a name the photo does not carry is refused, so an acknowledged removal
  always writes a stamp above everything before it.
"""

from collections import Counter, namedtuple

ACKED, UNKNOWN = "acked", "unknown"

# One write: its place in the sequence, the daemon it went to ("owner"/"participant"),
# acked or unknown, and its kind ("add"/"remove" for tags) and value (a name, a rating).
Event = namedtuple("Event", "seq daemon status kind value")


class PhotoRecord:
    """One `photo add` attempt (identified by its data's sha256: every photo's bytes are
    random) and every later write to that photo."""

    def __init__(self, seq, daemon, status, sha256, size, name, photo_id):
        self.add = Event(seq, daemon, status, "add", name)
        self.sha256, self.size, self.name, self.id = sha256, size, name, photo_id
        self.deletes = []
        self.renames = []
        self.tags = {}  # name -> [Event kind add/remove]
        self.ratings = {}  # acknowledged rating id -> value
        self.rated_on = {}  # acknowledged rating id -> the daemon that made it
        self.unknown_ratings = []  # values of rate commands killed in flight

    @property
    def acked(self):
        return self.add.status == ACKED

    def maybe_live(self):
        """Acknowledged added and not acknowledged deleted: writes may still target it."""
        return self.acked and not any(e.status == ACKED for e in self.deletes)

    def existence(self):
        """'present', 'absent' or 'maybe' at the end, for both peers."""
        if not self.acked:
            return "maybe"
        if any(e.status == ACKED for e in self.deletes):
            return "absent"
        return "maybe" if self.deletes else "present"

    def possible_names(self):
        """The name is the last acknowledged rename's (or the added name), or the name of
        an unknown rename issued after it."""
        last = max((e for e in self.renames if e.status == ACKED), key=lambda e: e.seq, default=None)
        base = last.value if last else self.name
        since = last.seq if last else self.add.seq
        return {base} | {e.value for e in self.renames if e.status == UNKNOWN and e.seq > since}

    def tag_expectation(self, name):
        """'present', 'absent' or 'maybe' for a tag name on this photo, if it is live."""
        events = self.tags.get(name, [])
        adds = [e for e in events if e.kind == "add"]
        removes = [e for e in events if e.kind == "remove"]
        last_add = max((e.seq for e in adds), default=-1)
        # An acknowledged removal after every tagging attempt is stamped above them all.
        if any(e.status == ACKED and e.seq > last_add for e in removes):
            return "absent"
        if not adds:
            return "absent"
        # Present for sure when a tagging was acknowledged and, for each daemon, its last
        # removal (if any) is followed by an acknowledged tagging on that same daemon: that
        # daemon saw its removal, so its tagged view then rests on a stamp above it.
        if not any(e.status == ACKED for e in adds):
            return "maybe"
        for daemon in {e.daemon for e in removes}:
            last_remove = max(e.seq for e in removes if e.daemon == daemon)
            if not any(e.status == ACKED and e.daemon == daemon and e.seq > last_remove for e in adds):
                return "maybe"
        return "present"


class Model:
    """Every write of the run, by photo."""

    def __init__(self):
        self.seq = 0
        self.photos = {}  # sha256 -> PhotoRecord
        self.by_id = {}  # photo id -> PhotoRecord (acknowledged adds only)

    def next_seq(self):
        self.seq += 1
        return self.seq

    def added(self, seq, daemon, status, sha256, size, name, photo_id=None):
        record = PhotoRecord(seq, daemon, status, sha256, size, name, photo_id)
        self.photos[sha256] = record
        if photo_id:
            self.by_id[photo_id] = record

    def live_targets(self):
        return [r for r in self.by_id.values() if r.maybe_live()]

    def deleted(self, seq, daemon, status, photo_id):
        self.by_id[photo_id].deletes.append(Event(seq, daemon, status, "delete", None))

    def renamed(self, seq, daemon, status, photo_id, name):
        self.by_id[photo_id].renames.append(Event(seq, daemon, status, "rename", name))

    def tagged(self, seq, daemon, status, photo_id, name, kind):
        self.by_id[photo_id].tags.setdefault(name, []).append(Event(seq, daemon, status, kind, name))

    def rated(self, daemon, status, photo_id, value, rating_id=None):
        record = self.by_id[photo_id]
        if status == ACKED:
            record.ratings[rating_id] = value
            record.rated_on[rating_id] = daemon
        else:
            record.unknown_ratings.append(value)


class Verdict:
    """What the final state proved: expectations checked, acknowledged writes lost, and
    anything that no write explains (phantoms)."""

    def __init__(self):
        self.checked = Counter()  # kind -> acknowledged effects confirmed
        self.lost = []  # one line per acknowledged write whose effect is missing
        self.unknown_adds = [0, 0]  # photo adds killed in flight: [found at the end, attempted]
        self.phantoms = []  # state no write explains

    def confirm(self, kind):
        self.checked[kind] += 1


def check_final_state(model, photos):
    """Compares one peer's photos of the share (`photo list --json`) with the model."""
    verdict = Verdict()
    seen = {}
    for photo in photos:
        record = model.photos.get(photo["sha256"])
        if record is None:
            verdict.phantoms.append(f"photo {photo['id']} ({photo['name']!r}, sha256 {photo['sha256']}) "
                                    f"matches no photo add of the run")
            continue
        if record.id and record.id != photo["id"]:
            verdict.phantoms.append(f"photo {photo['id']} has the data of photo {record.id} (added at write "
                                    f"#{record.add.seq}) under another ID")
            continue
        if photo["sha256"] in seen:
            verdict.phantoms.append(f"photos {seen[photo['sha256']]} and {photo['id']} both come from write "
                                    f"#{record.add.seq}")
            continue
        seen[photo["sha256"]] = photo["id"]
        check_live_photo(record, photo, verdict)
    for record in model.photos.values():
        expected = record.existence()
        present = record.sha256 in seen
        if not record.acked:
            verdict.unknown_adds[0] += present
            verdict.unknown_adds[1] += 1
        if expected == "present" and not present:
            verdict.lost.append(f"photo add #{record.add.seq} on the {record.add.daemon} ({record.id}, "
                                f"{record.name!r}) acknowledged, never deleted, but missing")
        elif expected == "absent" and present:
            delete = next(e for e in record.deletes if e.status == ACKED)
            verdict.lost.append(f"photo delete #{delete.seq} on the {delete.daemon} of {record.id} acknowledged, "
                                f"but the photo is still there")
        elif expected != "maybe":
            verdict.confirm("photo add" if present else "photo delete")
    return verdict


def check_live_photo(record, photo, verdict):
    """Name, size, tags and ratings of a photo that is live at the end."""
    ident = f"photo {photo['id']} (added #{record.add.seq} on the {record.add.daemon})"
    if photo["size"] != record.size:
        verdict.phantoms.append(f"{ident}: size {photo['size']}, written {record.size}")
    names = record.possible_names()
    if photo["name"] in names:
        if record.renames or record.acked:
            verdict.confirm("rename" if record.renames else "photo name")
    else:
        verdict.lost.append(f"{ident}: name {photo['name']!r}, expected one of {sorted(names)} "
                            f"(renames: {[(e.seq, e.daemon, e.status, e.value) for e in record.renames]})")
    carried = {t["name"] for t in photo["tags"]}
    for name in sorted(carried | set(record.tags)):
        expected = record.tag_expectation(name)
        history = [(e.seq, e.daemon, e.status, e.kind) for e in record.tags.get(name, [])]
        if expected == "present" and name not in carried:
            verdict.lost.append(f"{ident}: tag {name!r} acknowledged and not removed since, but missing "
                                f"(writes: {history})")
        elif expected == "absent" and name in carried:
            what = "never added" if not history else "acknowledged removed after its last tagging"
            target = verdict.phantoms if not history else verdict.lost
            target.append(f"{ident}: tag {name!r} {what}, but there (writes: {history})")
        elif expected != "maybe":
            verdict.confirm("tag add" if expected == "present" else "tag remove")
    ratings = {r["id"]: r["value"] for r in photo["ratings"]}
    for rating_id, value in record.ratings.items():
        if ratings.get(rating_id) != value:
            verdict.lost.append(f"{ident}: rating {rating_id} = {value} acknowledged, found "
                                f"{ratings.get(rating_id)!r}")
        else:
            verdict.confirm("rate")
    extra = Counter(v for rid, v in ratings.items() if rid not in record.ratings)
    unexplained = extra - Counter(record.unknown_ratings)
    if unexplained:
        verdict.phantoms.append(f"{ident}: ratings {dict(extra)} that no acknowledged rate made and more than "
                                f"the unknown ones could ({record.unknown_ratings})")


def check_durable(model, role, photos, ratings):
    """What a daemon killed with SIGKILL must still hold when it restarts, before any peer
    can send anything back: every acknowledged write made on it whose object nobody has
    tried to delete. `photos` and `ratings` are its rows (id -> (name, deleted) and id ->
    deleted). Returns (writes confirmed, lines describing losses)."""
    confirmed, lost = 0, []
    for record in model.by_id.values():
        ident = f"photo {record.id} (added #{record.add.seq} on the {record.add.daemon})"
        row = photos.get(record.id)
        acked_deletes = [e for e in record.deletes if e.status == ACKED and e.daemon == role]
        if acked_deletes:
            if row is not None and row[1] == 0:
                lost.append(f"{ident}: delete #{acked_deletes[0].seq} acknowledged here, but the row is live")
            else:
                confirmed += 1
        if record.deletes:
            continue
        if record.add.daemon == role:
            if row is None or row[1] != 0:
                lost.append(f"{ident}: acknowledged here, but {'missing' if row is None else 'deleted'}")
                continue
            confirmed += 1
        last = max(record.renames, key=lambda e: e.seq, default=None)
        if last and last.status == ACKED and last.daemon == role and row is not None:
            if row[0] != last.value:
                lost.append(f"{ident}: rename #{last.seq} to {last.value!r} acknowledged here (the last rename), "
                            f"but the name is {row[0]!r}")
            else:
                confirmed += 1
        for rating_id, daemon in record.rated_on.items():
            if daemon == role:
                if ratings.get(rating_id) != 0:
                    lost.append(f"{ident}: rating {rating_id} acknowledged here, but "
                                f"{'missing' if rating_id not in ratings else 'deleted'}")
                else:
                    confirmed += 1
    return confirmed, lost
