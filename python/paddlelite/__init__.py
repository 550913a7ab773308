"""paddle-lite-plus for Python, with Paddle-Lite's module layout.

The engine is the extension module ``paddlelite.lite``::

    from paddlelite.lite import *

    config = MobileConfig()
    config.set_model_from_file("model.nb")
    predictor = create_paddle_predictor(config)

``paddle_lite_opt`` (installed with the wheel) is the offline optimizer, with
the same flags as the ``opt`` tool.
"""
