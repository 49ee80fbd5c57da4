"""hub_reachable: the model host (or the mirror in HF_ENDPOINT) answers, for downloads."""

from app.doctor.facts import HF_MIRROR_EXAMPLE
from app.doctor.result import Verdict

ID, TITLE = "hub_reachable", "Model download host"


def check(s):
    v = Verdict(ID, TITLE)
    net = s.get("network")
    if net is None:
        return v.unreadable("the network")
    host = net.get("hub_endpoint") or "https://huggingface.co"
    reachable = net.get("hub_reachable")
    if reachable is None:
        return v.skip(f"{host} was not contacted ({net.get('error') or 'offline'}).")
    if reachable:
        return v.ok(f"{host} answers.")
    have_model = bool((s.get("model") or {}).get("files"))
    fix = (f"Set a mirror before starting the program, e.g. HF_ENDPOINT={HF_MIRROR_EXAMPLE}, use "
           "ModelScope, or copy a model folder from another computer and choose it.")
    if have_model:
        return v.ok(f"{host} does not answer, but the model is already here.", details=net.get("error") or "")
    return v.warn(f"{host} does not answer, so the model cannot be downloaded from it.",
                  details=net.get("error") or "", fix=fix)
