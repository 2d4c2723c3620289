"""MQTT: the board's topics, Home Assistant discovery and the paho-mqtt adapter (see ``docs/mqtt.md``)."""
