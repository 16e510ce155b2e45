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
cli-x1-bytes-in = { $bytes } bajtów -> { $dest } w { $secs } s ({ $rate })
cli-x1-interrupted = przerwano
cli-x1-is-directory = { $path } jest katalogiem
cli-x1-resume-larger = nie można wznowić: { $dest } ({ $have } bajtów) jest większy niż { $src } ({ $size } bajtów)
cli-x1-complete = { $dest } jest już kompletny ({ $bytes } bajtów)
cli-x1-many-need-dir = wiele plików trafia do katalogu lub na -: { $dest } nie jest katalogiem
cli-x1-put-many-need-dir = wiele plików trafia pod URL katalogu, zakończony znakiem /
cli-x1-stdin-alone = standardowe wejście (-) wysyła się samo, pod URL wskazujący plik
cli-x1-resume-needs-file = -c wymaga pliku, nie standardowego wejścia ani wyjścia
cli-x1-no-match = żaden zdalny plik nie pasuje do { $pattern }
cli-x1-rm-top = odmowa usunięcia katalogu najwyższego poziomu "{ $path }"
cli-x1-failed-count = nieudane: { $failed } z { $total }
cli-x1-writing = zapis { $path }
cli-x1-writing-stdout = zapis na standardowe wyjście
cli-x1-reading-stdin = odczyt standardowego wejścia
