"""``aetherlink demo``: a whole game by simulated players at a simulated table, through the whole stack.

``stack`` builds the pipeline (serial link, HAL, service, MQTT, web page),
``watcher`` is the MQTT client the players answer prompts through, and one
driver per game (``aac``) plays the game and checks the service against the
players' own truth.
"""
