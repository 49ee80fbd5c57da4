"""The environment doctor: probes read the machine into a snapshot; checks judge the snapshot.

No Qt here. Every access to the system goes through `probes.LiveProbe`; a saved snapshot
goes through `probes.SnapshotProbe`; the checks cannot tell the two apart.
"""
