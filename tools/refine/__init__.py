"""tools.refine - the refinement map between the Promela model and the C core (spec/refinement.yml).

  python3 -m tools.refine.check              hold both sides to the map (spec/refinement.md)
  python3 -m tools.refine.mutants ID         the check on a copy of the tree with one known-bad edit
"""
