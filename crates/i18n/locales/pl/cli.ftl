# Komunikaty wiersza poleceń babelftp, po polsku.
# Nazwy, adresy URL, liczby i kody odpowiedzi są argumentami i nigdy nie są tłumaczone.

cli-error = babelftp: błąd: { $error }
cli-bytes-to = { $bytes } bajtów -> { $dest }
cli-mirror-summary = skopiowano: { $copied } ({ $bytes } bajtów), bez zmian: { $unchanged }, usunięto: { $deleted }
cli-serving = babelftp udostępnia { $root } pod adresem { $url }
cli-connect-hint = Połącz się dowolnym klientem FTP jako "anonymous" (tylko odczyt), np.: { $example }
cli-stopped = babelftp zatrzymany.
cli-connecting = łączenie z { $host }
cli-refused = serwer odmówił: { $reply }
cli-url-names-no-file = adres URL nie wskazuje pliku
cli-bad-url = nieprawidłowy adres URL { $url }
cli-unknown-charset = nieznane kodowanie znaków { $charset }
cli-charset-guessed = kodowanie znaków: { $charset } (odgadnięte z { $count } nazw)
cli-charset-remembered = kodowanie znaków: { $charset } (zapamiętane dla tego serwera)
cli-charset-explicit = kodowanie znaków: { $charset } (z --charset)
cli-unknown-command = nieznane polecenie { $command } (spróbuj help)
cli-needs-argument = { $command } wymaga argumentu
cli-creating = tworzenie { $path }
cli-opening = otwieranie { $path }
cli-insecure = uwaga: --insecure: certyfikat serwera nie jest sprawdzany; każdy na ścieżce sieciowej może podszyć się pod { $host } i czytać lub zmieniać tę sesję, łącznie z hasłami i plikami
cli-access-anonymous-off = dostęp: logowania anonimowe odrzucane
cli-access-anonymous-read = dostęp: anonimowy, tylko do odczytu, w całym katalogu głównym
cli-access-anonymous-write = dostęp: anonimowy, odczyt i zapis, w całym katalogu głównym
cli-access-user-write = dostęp: użytkownik { $name }, odczyt i zapis, w { $home }
cli-access-user-read = dostęp: użytkownik { $name }, tylko do odczytu, w { $home }
cli-root-missing = katalog główny { $path } nie istnieje (tworzony jest tylko domyślny ftp-root; utwórz go lub popraw --root)
cli-bad-listen = --listen { $value }: { $error } (podaj ADRES:PORT, HOST:PORT lub PORT)
cli-starting = uruchamianie serwera
cli-nofile-raised = otwarte pliki: limit podniesiony z { $from } do { $to }
cli-nofile-capped = uwaga: otwarte pliki są ograniczone do { $limit }: około { $sessions } sesji naraz, a nie { $max } z --max-connections; podnieś twardy limit (ulimit -Hn lub LimitNOFILE= w jednostce systemd)
cli-x3-password-prompt = Hasło użytkownika { $user } na { $host }:
cli-x3-password-unread = podczas czytania hasła
cli-x3-passwd-new = Nowe hasło:
cli-x3-passwd-again = To samo hasło jeszcze raz:
cli-x3-passwd-mismatch = hasła się różnią; nic nie zostało wypisane
cli-x3-passwd-empty = puste hasło
cli-x3-interrupted = { $command }: przerwano
cli-x3-reconnecting = połączenie nie wróciło do synchronizacji; łączenie od nowa
cli-x3-mv-usage = mv wymaga dwóch nazw: mv STARA NOWA
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = katalog lokalny: { $path }
cli-x3-local-command-failed = podczas uruchamiania polecenia lokalnego
cli-x3-password-no-terminal = brak terminala, by zapytać o hasło { $user } na { $host }: wysyłane jest puste (podaj je przez -u { $user }:HASŁO lub w ~/.netrc)
