"""The report's section types and how they are written: :mod:`~analyser.report.model` (sections
of figures, tables and text), :mod:`~analyser.report.blocks` (the pieces a study's section is
built from), :mod:`~analyser.report.charts` (the figures) and :mod:`~analyser.report.writer`
(``index.html`` and ``index.md``).

This package knows nothing of the studies: building the report from them is
:mod:`analyser.studies.report`.
"""
