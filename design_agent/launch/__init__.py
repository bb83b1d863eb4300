"""The console script's first step, standard library only: `entry` chooses between the
`ask` fast path to a running server (`remote_ask`) and the full command line (cli/).

The top layer: it may import any other, and nothing imports it.
"""
