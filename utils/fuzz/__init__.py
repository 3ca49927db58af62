"""Randomized differential testing of the whole mplan pipeline (utils/fuzz_pipeline.py is the
entry point; runner.py's docstring says what a run does).

  builder.py         the memref-level builder (MF, MBuf) and program skeleton (MemrefProgram)
  tensor_builder.py  the tensor-level builder (random linalg-on-tensors programs)
  kind.py            what a kind is (Kind, MemrefKind, TensorKind) and a planned run (Cfg)
  kinds/             one module per program kind; a new kind is a new module defining KIND
  runner.py          baselines, planned runs, checks, the summary and the command line
"""
