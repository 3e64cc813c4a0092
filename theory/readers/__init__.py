"""The readers (and writers) of data files: everything in :mod:`theory` that opens a file
or reads the packaged data.

* :mod:`theory.readers.traces`: the packaged Google 2011 task table (PG21 Sec. VII-B)
  and user size files; :func:`~theory.readers.traces.read_text_file`, the bounded UTF-8
  (plain or gzip) text reader the other readers use.
* :mod:`theory.readers.job_files`: job and cluster CSV files of finite job sets
  (docs/design.md, Contracts: job and cluster files).
* :mod:`theory.readers.bpplib`: BPPLIB bin-packing instances (bpp and csp layouts).
* :mod:`theory.readers.azure`: FL24's Azure-like workload from the packaged Azure 2017
  VM trace (FL24 Sec. 7.1).
* :mod:`theory.readers.trace_job_sets`: XLL21's job set from the packaged Google 2011
  finished tasks (XLL21 Sec. VI).

The packaged files stay in ``theory/data`` (package data of ``theory``) and are read
with :mod:`importlib.resources`, never by a path computed from ``__file__``. The public
names of ``traces`` and ``job_files`` are also re-exported by :mod:`theory`
(``from theory import read_jobs``). Nothing is imported here: ``import theory.readers``
costs nothing until a reader is used.
"""
