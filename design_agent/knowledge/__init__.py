"""What design-agent knows: the catalogue of methods and personas (registry), their guides
and materials, the prompt contract built from them, the checks of an answer, and the tags
a model may write.

Below understanding/; above memory/, providers/ and core/.
"""
