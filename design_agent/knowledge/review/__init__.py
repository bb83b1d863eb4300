"""The review of an answer, one check kind per module (issue 26): the outline's parts by
heading, recomputed tables and totals, percentages and sample sizes, citations, the
limitations and confidence lines, the project's recorded decisions. Each check reads
the answer's text (document.py) and the words of words.yaml, and returns CheckItems
whose detail says in one line, in the answer's language, what is wrong."""
