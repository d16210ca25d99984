"""What the API says about itself: the OpenAPI document, the schemas of its answers, the recorded
examples and the documented problem responses."""
