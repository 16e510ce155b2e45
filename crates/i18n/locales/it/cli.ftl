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
cli-names-guessed = nota: { $count } nomi non sono UTF-8 e sono mostrati come { $charsets } per ipotesi; --charset { $charset } lo fissa, --raw mostra i byte
cli-users-reloaded = utenti ricaricati: { $count } utenti con nome (le sessioni già autenticate continuano)
cli-users-reload-failed = utenti non ricaricati, resta l’elenco precedente: { $error }
cli-x2-bad-password = la password nell'URL non è scritta correttamente: codifica / : @ # % e gli spazi con il percento (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } non è sul server di { $from }: una rinomina non può spostare un file su un altro server (usa get, poi put)
cli-x2-mirror-failed = non riuscito: { $path }: { $error }
cli-x2-mirror-failures = mirror incompleto: { $count } non riusciti (ciascuno indicato sopra); eseguilo di nuovo per riprovarli e riprendere i download parziali
cli-x2-reconnecting = la connessione è stata persa; nuova connessione in corso
cli-x2-check-dropped = { $what }: il server ha interrotto la connessione (i controlli proseguono su una nuova)
cli-x2-check-cleanup-failed = impossibile rimuovere la directory temporanea { $path }: { $error }
cli-metrics-serving = metriche: http://{ $addr }/metrics, stato: http://{ $addr }/health
