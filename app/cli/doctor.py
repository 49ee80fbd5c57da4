"""`chattts-studio doctor`: what stops ChatTTS from using the GPU or running at all.

Exit code 1 when a check fails, so a script can act on it.
"""

from __future__ import annotations

from app.core import OutputError
from app.i18n import _


def add_parser(sub) -> None:
    d = sub.add_parser(
        "doctor",
        help="check drivers, CUDA, PyTorch and Windows settings",
        description="Check this machine (or a saved snapshot) for what stops ChatTTS "
        "from using the GPU or running at all. Exit code 1 when a check fails.",
    )
    d.add_argument("--json", action="store_true", help="print the report as JSON")
    d.add_argument(
        "--model", metavar="DIR", help="model folder to check (default: the configured one)"
    )
    d.add_argument(
        "--snapshot", metavar="FILE", help="judge a saved snapshot instead of this machine"
    )
    d.add_argument(
        "--save-snapshot", metavar="FILE", help="also save what was read, for a bug report"
    )
    d.add_argument(
        "--quick", action="store_true", help="skip the slow parts: model checksums and the network"
    )
    d.add_argument("--offline", action="store_true", help="do not contact the model host")
    d.add_argument("--details", action="store_true", help="show each check's details")
    d.set_defaults(func=run)


def run(args) -> int:
    from app.doctor.probes import SnapshotProbe
    from app.doctor.report import render_json, render_text
    from app.doctor.runner import run_doctor
    from app.doctor.snapshot import load_snapshot, save_snapshot

    if args.snapshot:
        probe = SnapshotProbe(load_snapshot(args.snapshot))
    else:
        from app.doctor.probes.live import LiveProbe

        probe = LiveProbe(
            args.model, verify_model=not args.quick, offline=args.quick or args.offline
        )
    report = run_doctor(probe)
    if args.save_snapshot:
        try:
            save_snapshot(report.snapshot, args.save_snapshot)
        except OSError as exc:
            raise OutputError(
                _("The snapshot could not be saved to {file} ({reason}).").format(
                    file=args.save_snapshot, reason=exc.strerror or exc
                )
            ) from None
    print(render_json(report) if args.json else render_text(report, verbose=args.details))
    if args.save_snapshot and not args.json:
        print(
            "\n"
            + _("Snapshot saved to {file}; attach it to a bug report.").format(
                file=args.save_snapshot
            )
        )
    return 1 if report.failed else 0
