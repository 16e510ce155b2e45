# babelftp command-line messages, English (the source catalog).
# Names, URLs, numbers and reply codes are arguments and are never translated.

cli-error = babelftp: { $error }
cli-bytes-to = { $bytes } bytes -> { $dest }
cli-mirror-summary = { $copied } copied ({ $bytes } bytes), { $unchanged } unchanged, { $deleted } deleted
cli-serving = babelftp serving { $root } on { $url }
cli-connect-hint = Connect with any FTP client as "anonymous" (read-only), e.g.: { $example }
cli-stopped = babelftp stopped.
cli-connecting = connecting to { $host }
cli-refused = server refused: { $reply }
cli-url-names-no-file = the URL names no file
cli-bad-url = bad URL { $url }
cli-unknown-charset = unknown charset { $charset }
cli-charset-guessed = charset: { $charset } (guessed from { $count } names)
cli-charset-remembered = charset: { $charset } (remembered for this server)
cli-charset-explicit = charset: { $charset } (from --charset)
cli-unknown-command = unknown command { $command } (try help)
cli-needs-argument = { $command } needs an argument
cli-creating = creating { $path }
cli-opening = opening { $path }
cli-insecure = warning: --insecure: the server's certificate is not checked; anyone on the network path can pose as { $host } and read or change this session, passwords and files included
cli-access-anonymous-off = access: anonymous logins refused
cli-access-anonymous-read = access: anonymous, read-only, on the whole root
cli-access-anonymous-write = access: anonymous, read and write, on the whole root
cli-access-user-write = access: user { $name }, read and write, in { $home }
cli-access-user-read = access: user { $name }, read-only, in { $home }
cli-root-missing = the root directory { $path } does not exist (only the default ftp-root is created; create it, or fix --root)
cli-bad-listen = --listen { $value }: { $error } (write ADDR:PORT, HOST:PORT or a PORT)
cli-starting = starting the server
cli-nofile-raised = open files: limit raised from { $from } to { $to }
cli-nofile-capped = warning: open files are limited to { $limit }: about { $sessions } sessions at once, not the { $max } of --max-connections; raise the hard limit (ulimit -Hn, or LimitNOFILE= in a systemd unit)
cli-x3-password-prompt = Password for { $user } at { $host }:
cli-x3-password-unread = reading the password
cli-x3-passwd-new = New password:
cli-x3-passwd-again = The same password again:
cli-x3-passwd-mismatch = the two passwords differ; nothing was printed
cli-x3-passwd-empty = empty password
cli-x3-interrupted = { $command }: interrupted
cli-x3-reconnecting = the connection did not come back in step; connecting again
cli-x3-mv-usage = mv needs two names: mv OLD NEW
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = local directory: { $path }
cli-x3-local-command-failed = running the local command
cli-x3-password-no-terminal = no terminal to ask for the password of { $user } at { $host }: sending an empty one (give it with -u { $user }:PASSWORD or in ~/.netrc)
