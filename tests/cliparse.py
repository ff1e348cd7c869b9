"""Parse a quoted ``tricksim ...`` command with tricksim's own command line, without running it."""


def root_command():
    """tricksim's command line as click commands (``.commands`` of a group by name): the CLI's own tree, built once
    (``cli.command_tree``); parsing reads it and changes nothing in it."""
    from tricksim.cli import command_tree
    return command_tree()


def parse_cli(argv):
    """Parse ``argv`` down to the sub-command: its name and parameters, or the parser's usage error
    (unknown option, bad value, missing argument) if the CLI would refuse it."""
    cmd = root_command()
    ctx = cmd.make_context("tricksim", list(argv))
    while hasattr(cmd, "resolve_command"):   # a group: on to its sub-command
        args = [*getattr(ctx, "_protected_args", getattr(ctx, "protected_args", [])), *ctx.args]
        name, sub, rest = cmd.resolve_command(ctx, args)
        ctx = sub.make_context(name, rest, parent=ctx)
        cmd = sub
    return cmd.name, ctx.params
