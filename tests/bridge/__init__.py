"""Tests of firmware_bridge: the service, its journal, MQTT, deployment."""
