"""The operators' management commands: thin commands (parse, call one wing, print) and
``command_io``, what they share. The benchmark and load test are ``tools/bench``'s."""
