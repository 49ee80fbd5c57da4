"""One narration on many processes, GPUs and machines: a farm of workers, each holding a loaded
model, behind the same face as the engine (`submit` -> job, `synthesizer` for voices), so the
narration Renderer drives it unchanged and the driver alone writes the project.

    slots.py     a worker slot: takes work from the shared queue, re-queues it if its worker
                 dies, restarts the worker, retires it after repeated failures
    farm.py      FarmEngine: the engine's face over the slots
    local.py     workers as local processes (the default on one machine)
    ray_pool.py  workers as Ray actors (optional extra: pip install "chattts-studio[farm]")
    worker.py    what runs inside a worker: load (verified), then render requests one at a time
    plan.py      how many workers `auto` means on this machine, and their threads

Each sentence has its own seed and its chapter's reference, and a worker renders one request
at a time, so a sentence's audio is the same whichever worker made it, however many there are,
and whatever failed on the way.
"""
