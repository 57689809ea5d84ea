"""Tests of the loopback fake Discord (the package is top-level ``fakediscord``)."""
