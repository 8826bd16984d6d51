"""Build the solver's C search core; everything else is in pyproject.toml."""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bonanza.solver._search",
            # One translation unit: _search.c #includes the search_*.h pieces.
            sources=["src/bonanza/solver/_search.c"],
            depends=sorted(glob("src/bonanza/solver/search_*.h")),
            extra_compile_args=["-std=c99", "-O3", "-Wall", "-Wextra"],
        )
    ]
)
