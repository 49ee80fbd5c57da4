"""hub_reachable: the model host (or the mirror in HF_ENDPOINT) answers, for downloads."""

import re
from urllib.parse import urlsplit

from app.doctor.facts import HF_DEFAULT, HF_MIRROR
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "hub_reachable", N_("Model download host")
# An older snapshot has only the exception's text: where it says what went wrong.
_TEXT_KINDS = (
    ("proxy", ("ProxyError",)),
    ("tls", ("SSLError", "CERTIFICATE_VERIFY")),
    ("timeout", ("Timeout", "timed out")),
    (
        "dns",
        (
            "NameResolutionError",
            "Failed to resolve",
            "getaddrinfo",
            "Name or service not known",
            "nodename nor servname",
        ),
    ),
    ("refused", ("Connection refused", "ConnectionRefused", "actively refused")),
    ("http", ("HTTP ",)),
)
_HTTP_STATUS = re.compile(r"HTTP ([1-5][0-9]{2})\b", re.ASCII)  # as read_network wrote it


def _kind(net: dict) -> str:
    kind = net.get("error_kind")
    if isinstance(kind, str) and kind:
        return kind
    error = net.get("error") or ""
    return next((k for k, marks in _TEXT_KINDS if any(m in error for m in marks)), "other")


def why(net: dict, host: str) -> str:
    """Why the host did not answer, in one sentence (the exception itself is in the log and
    the snapshot, not the report: tests/doctor/test_runner.py)."""
    kind = _kind(net)
    name = urlsplit(host).hostname or host
    if kind == "dns":
        return _(
            "The name {name} could not be looked up: this computer may be offline, or its DNS "
            "server does not answer."
        ).format(name=name)
    if kind == "timeout":
        return _(
            "{name} did not answer in time: the connection is slow, or a firewall drops it."
        ).format(name=name)
    if kind == "refused":
        return _("{name} refused the connection: nothing answers at that address and port.").format(
            name=name
        )
    if kind == "tls":
        return _(
            "The secure connection to {name} failed: its certificate could not be verified (a proxy or "
            "antivirus that inspects HTTPS does this)."
        ).format(name=name)
    if kind == "proxy":
        return _(
            "The proxy refused or failed the connection to {name}; check the HTTPS_PROXY setting."
        ).format(name=name)
    if kind == "http":
        status = net.get("http_status")
        if not isinstance(status, int):
            found = _HTTP_STATUS.search(net.get("error") or "")
            status = int(found.group(1)) if found else None
        if status:
            return _("{name} answered with the server error {status}; try again later.").format(
                name=name, status=status
            )
        return _("{name} answered with a server error; try again later.").format(name=name)
    return _("The connection to {name} failed; this computer may be offline.").format(name=name)


def check(s):
    v = Verdict(ID, TITLE)
    net = s.get("network")
    if net is None:
        return v.unreadable(_("the network"))
    host = net.get("hub_endpoint") or HF_DEFAULT
    reachable = net.get("hub_reachable")
    if reachable is None:
        # The live probe records "offline mode" (English, in the snapshot); say it in the reader's language.
        reason = net.get("error")
        reason = _("offline mode") if reason in (None, "", "offline mode") else reason
        return v.skip(_("{host} was not contacted ({reason}).").format(host=host, reason=reason))
    if reachable:
        return v.ok(_("{host} answers.").format(host=host))
    have_model = bool((s.get("model") or {}).get("files"))
    fix = _(
        "Set a mirror before starting the program, e.g. {setting}, use ModelScope, or copy a model folder "
        "from another computer and choose it."
    ).format(setting=f"HF_ENDPOINT={HF_MIRROR}")
    if have_model:
        return v.ok(
            _("{host} does not answer, but the model is already here.").format(host=host),
            details=why(net, host),
        )
    return v.warn(
        _("{host} does not answer, so the model cannot be downloaded from it.").format(host=host),
        details=why(net, host),
        fix=fix,
    )
