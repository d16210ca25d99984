"""The SQL store: models, engine set-up and the query functions every other package calls."""
