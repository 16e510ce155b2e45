# Meldungen der babelftp-Befehlszeile, Deutsch.
# Namen, URLs, Zahlen und Antwortcodes sind Argumente und werden nie übersetzt.

cli-error = babelftp: Fehler: { $error }
cli-bytes-to = { $bytes } Bytes -> { $dest }
cli-mirror-summary = { $copied } kopiert ({ $bytes } Bytes), { $unchanged } unverändert, { $deleted } gelöscht
cli-serving = babelftp stellt { $root } unter { $url } bereit
cli-connect-hint = Verbinden Sie sich mit einem beliebigen FTP-Client als "anonymous" (nur Lesezugriff), z. B.: { $example }
cli-stopped = babelftp beendet.
cli-connecting = Verbindung zu { $host } wird hergestellt
cli-refused = vom Server abgelehnt: { $reply }
cli-url-names-no-file = die URL gibt keine Datei an
cli-bad-url = ungültige URL { $url }
cli-unknown-charset = unbekannter Zeichensatz { $charset }
cli-charset-guessed = Zeichensatz: { $charset } (aus { $count } Namen erraten)
cli-charset-remembered = Zeichensatz: { $charset } (für diesen Server gespeichert)
cli-charset-explicit = Zeichensatz: { $charset } (aus --charset)
cli-unknown-command = unbekannter Befehl { $command } (versuchen Sie help)
cli-needs-argument = { $command } benötigt ein Argument
cli-creating = { $path } wird angelegt
cli-opening = { $path } wird geöffnet
cli-insecure = Warnung: --insecure: Das Zertifikat des Servers wird nicht geprüft; jeder auf dem Netzwerkpfad kann sich als { $host } ausgeben und diese Sitzung samt Passwörtern und Dateien mitlesen oder verändern
cli-access-anonymous-off = Zugang: anonyme Anmeldungen abgelehnt
cli-access-anonymous-read = Zugang: anonym, nur lesen, auf der ganzen Wurzel
cli-access-anonymous-write = Zugang: anonym, lesen und schreiben, auf der ganzen Wurzel
cli-access-user-write = Zugang: Benutzer { $name }, lesen und schreiben, in { $home }
cli-access-user-read = Zugang: Benutzer { $name }, nur lesen, in { $home }
cli-root-missing = das Wurzelverzeichnis { $path } existiert nicht (nur das voreingestellte ftp-root wird angelegt; legen Sie es an oder korrigieren Sie --root)
cli-bad-listen = --listen { $value }: { $error } (ADRESSE:PORT, HOST:PORT oder einen PORT angeben)
cli-starting = Starten des Servers
cli-nofile-raised = offene Dateien: Grenze von { $from } auf { $to } angehoben
cli-nofile-capped = Warnung: offene Dateien sind auf { $limit } begrenzt: etwa { $sessions } Sitzungen gleichzeitig, nicht die { $max } von --max-connections; heben Sie die harte Grenze an (ulimit -Hn oder LimitNOFILE= in einer systemd-Unit)
cli-x3-password-prompt = Passwort für { $user } auf { $host }:
cli-x3-password-unread = beim Lesen des Passworts
cli-x3-passwd-new = Neues Passwort:
cli-x3-passwd-again = Dasselbe Passwort noch einmal:
cli-x3-passwd-mismatch = die beiden Passwörter sind verschieden; nichts wurde ausgegeben
cli-x3-passwd-empty = leeres Passwort
cli-x3-interrupted = { $command }: abgebrochen
cli-x3-reconnecting = die Verbindung kam nicht wieder in Takt; neue Verbindung wird aufgebaut
cli-x3-mv-usage = mv braucht zwei Namen: mv ALT NEU
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = lokales Verzeichnis: { $path }
cli-x3-local-command-failed = beim Ausführen des lokalen Befehls
cli-x3-password-no-terminal = kein Terminal, um nach dem Passwort von { $user } auf { $host } zu fragen: ein leeres wird gesendet (mit -u { $user }:PASSWORT oder in ~/.netrc angeben)
