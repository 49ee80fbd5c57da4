"""One narration on many processes, GPUs and machines: a farm of workers, each holding a loaded
model, behind the same face as the engine (`submit` -> job, `synthesizer` for voices), so the
narration Renderer drives it unchanged and the driver alone writes the project.

    slots.py     a worker slot: keeps several items of the shared queue on its worker,
                 re-queues them if the worker dies, restarts it, retires it after repeated
                 failures
    farm.py      FarmEngine: the engine's face over the slots
    local.py     workers as local processes (the default on one machine)
    ray_pool.py  workers as Ray actors (optional extra: pip install "chattts-studio[farm]")
    worker.py    what runs inside a worker: load (verified) on an Engine, then render the
                 requests in flight on it together (its scheduler batches them)
    plan.py      how many workers `auto` means on this machine, and their threads

Each sentence has its own seed and its chapter's reference, and a chapter's first sentence
(whose take makes the reference) is rendered with nothing beside it, so a sentence's tokens and
each chapter's voice are the same whichever worker made it, however many there are, and whatever
failed on the way; its audio differs at most in float rounding where it shared a batch, as in
one process (the engine's bound). A worker given one sentence at a time renders sample for
sample what one process does alone.
"""
