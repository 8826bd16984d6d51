"""Build the C extensions (the solver's search core, the RL batch engine); the rest is in
pyproject.toml."""

from glob import glob

from setuptools import Extension, setup

COMPILE_ARGS = ["-std=c99", "-O3", "-Wall", "-Wextra"]

setup(
    ext_modules=[
        Extension(
            "bonanza.solver._search",
            # One translation unit: _search.c #includes the search_*.h pieces.
            sources=["src/bonanza/solver/_search.c"],
            depends=sorted(glob("src/bonanza/solver/search_*.h")),
            extra_compile_args=COMPILE_ARGS,
        ),
        Extension(
            "bonanza.rl._batch",
            # One translation unit: _batch.c #includes the batch_*.h pieces.
            sources=["src/bonanza/rl/_batch.c"],
            depends=sorted(glob("src/bonanza/rl/batch_*.h")),
            extra_compile_args=COMPILE_ARGS,
        ),
    ]
)
