# Messaggi della riga di comando di babelftp, in italiano.
# Nomi, URL, numeri e codici di risposta sono argomenti e non vengono mai tradotti.

cli-error = babelftp: errore: { $error }
cli-bytes-to = { $bytes } byte -> { $dest }
cli-mirror-summary = { $copied } copiati ({ $bytes } byte), { $unchanged } invariati, { $deleted } eliminati
cli-serving = babelftp serve { $root } su { $url }
cli-connect-hint = Collegarsi con qualsiasi client FTP come "anonymous" (sola lettura), per esempio: { $example }
cli-stopped = babelftp arrestato.
cli-connecting = connessione a { $host }
cli-refused = rifiutato dal server: { $reply }
cli-url-names-no-file = l'URL non indica alcun file
cli-bad-url = URL non valido { $url }
cli-unknown-charset = set di caratteri sconosciuto { $charset }
cli-charset-guessed = set di caratteri: { $charset } (dedotto da { $count } nomi)
cli-charset-remembered = set di caratteri: { $charset } (ricordato per questo server)
cli-charset-explicit = set di caratteri: { $charset } (da --charset)
cli-unknown-command = comando sconosciuto { $command } (provare help)
cli-needs-argument = { $command } richiede un argomento
cli-creating = creazione di { $path }
cli-opening = apertura di { $path }
cli-insecure = attenzione: --insecure: il certificato del server non viene verificato; chiunque sul percorso di rete può fingersi { $host } e leggere o modificare questa sessione, password e file compresi
cli-access-anonymous-off = accesso: accessi anonimi rifiutati
cli-access-anonymous-read = accesso: anonimo, sola lettura, su tutta la radice
cli-access-anonymous-write = accesso: anonimo, lettura e scrittura, su tutta la radice
cli-access-user-write = accesso: utente { $name }, lettura e scrittura, in { $home }
cli-access-user-read = accesso: utente { $name }, sola lettura, in { $home }
cli-root-missing = la directory radice { $path } non esiste (viene creata solo ftp-root, quella predefinita; createla o correggete --root)
cli-bad-listen = --listen { $value }: { $error } (scrivete INDIRIZZO:PORTA, HOST:PORTA o una PORTA)
cli-starting = avvio del server
cli-nofile-raised = file aperti: limite alzato da { $from } a { $to }
cli-nofile-capped = attenzione: i file aperti sono limitati a { $limit }: circa { $sessions } sessioni alla volta, non le { $max } di --max-connections; alzare il limite rigido (ulimit -Hn, o LimitNOFILE= in una unità systemd)
cli-x3-password-prompt = Password di { $user } su { $host }:
cli-x3-password-unread = lettura della password
cli-x3-passwd-new = Nuova password:
cli-x3-passwd-again = La stessa password di nuovo:
cli-x3-passwd-mismatch = le due password sono diverse; non è stato stampato nulla
cli-x3-passwd-empty = password vuota
cli-x3-interrupted = { $command }: interrotto
cli-x3-reconnecting = la connessione non è tornata in sincronia; nuova connessione
cli-x3-mv-usage = mv richiede due nomi: mv VECCHIO NUOVO
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = directory locale: { $path }
cli-x3-local-command-failed = esecuzione del comando locale
cli-x3-password-no-terminal = nessun terminale per chiedere la password di { $user } su { $host }: ne viene inviata una vuota (indicarla con -u { $user }:PASSWORD o in ~/.netrc)
