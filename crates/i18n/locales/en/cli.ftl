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
cli-names-guessed = note: { $count } names are not UTF-8 and are shown as { $charsets } by a guess; --charset { $charset } pins it, --raw shows the bytes
cli-users-reloaded = users reloaded: { $count } named users (sessions already logged in go on)
cli-users-reload-failed = users not reloaded, the old list stays: { $error }
cli-x2-bad-password = the password in the URL is not written right: percent-encode / : @ # % and spaces in it (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } is not on the server of { $from }: a rename cannot move a file to another server (get it, then put it)
cli-x2-mirror-failed = failed: { $path }: { $error }
cli-x2-mirror-failures = mirror incomplete: { $count } failed (each named above); run it again to retry them and resume partial downloads
cli-x2-reconnecting = the connection was lost; connecting again
cli-x2-check-dropped = { $what }: the server dropped the connection (the checks go on over a new one)
cli-x2-check-cleanup-failed = could not remove the scratch directory { $path }: { $error }
cli-metrics-serving = metrics: http://{ $addr }/metrics, health: http://{ $addr }/health
