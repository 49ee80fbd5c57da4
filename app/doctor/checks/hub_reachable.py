"""hub_reachable: the model host (or the mirror in HF_ENDPOINT) answers, for downloads."""

from app.doctor.facts import HF_DEFAULT, HF_MIRROR
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "hub_reachable", N_("Model download host")


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
    fix = _("Set a mirror before starting the program, e.g. {setting}, use ModelScope, or copy a model folder "
            "from another computer and choose it.").format(setting=f"HF_ENDPOINT={HF_MIRROR}")
    if have_model:
        return v.ok(_("{host} does not answer, but the model is already here.").format(host=host),
                    details=net.get("error") or "")
    return v.warn(_("{host} does not answer, so the model cannot be downloaded from it.").format(host=host),
                  details=net.get("error") or "", fix=fix)
