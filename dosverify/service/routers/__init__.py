"""The service's routers, one per resource: the checks, the specification, health, the web page."""
