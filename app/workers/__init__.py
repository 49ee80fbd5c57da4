"""QObjects that live on QThreads and call the engine; they hold no widgets."""
