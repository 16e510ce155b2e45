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
