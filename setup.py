"""Build the solver's C search core; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bonanza.solver._search",
            sources=["src/bonanza/solver/_search.c"],
            extra_compile_args=["-std=c99", "-O3", "-Wall", "-Wextra"],
        )
    ]
)
