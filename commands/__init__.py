"""Commands: what an operator or a developer runs (`python -m commands.X`); the server is in server/."""
