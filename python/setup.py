"""Packs the paddlelite wheel. Run by tools/build_wheel.sh from a staging
directory holding paddlelite/ (the Python files and the built extension
module lite<EXT_SUFFIX>); the version comes from PADDLELITE_VERSION."""

import os

from setuptools import Distribution, setup


class BinaryDistribution(Distribution):
    """Marks the wheel as platform specific (it carries an extension module)."""

    def has_ext_modules(self):
        return True


setup(
    name="paddlelite",
    version=os.environ["PADDLELITE_VERSION"],
    description="paddle-lite-plus inference engine with Paddle-Lite's Python API",
    packages=["paddlelite"],
    package_data={"paddlelite": ["lite*.so"]},
    distclass=BinaryDistribution,
    install_requires=["numpy"],
    python_requires=">=3.11,<3.12",
    entry_points={"console_scripts": ["paddle_lite_opt=paddlelite.opt_command:main"]},
    zip_safe=False,
)
