# Mensajes de la línea de comandos de babelftp, en español.
# Los nombres, URL, números y códigos de respuesta son argumentos y nunca se traducen.

cli-error = babelftp: error: { $error }
cli-bytes-to = { $bytes } bytes transferidos a { $dest }
cli-mirror-summary = { $copied } copiados ({ $bytes } bytes), { $unchanged } sin cambios, { $deleted } eliminados
cli-serving = babelftp sirve { $root } en { $url }
cli-connect-hint = Conéctese con cualquier cliente FTP como "anonymous" (solo lectura), por ejemplo: { $example }
cli-stopped = babelftp detenido.
cli-connecting = conectando con { $host }
cli-refused = rechazado por el servidor: { $reply }
cli-url-names-no-file = la URL no indica ningún archivo
cli-bad-url = URL no válida { $url }
cli-unknown-charset = juego de caracteres desconocido { $charset }
cli-charset-guessed = juego de caracteres: { $charset } (deducido de { $count } nombres)
cli-charset-remembered = juego de caracteres: { $charset } (recordado para este servidor)
cli-charset-explicit = juego de caracteres: { $charset } (indicado con --charset)
cli-unknown-command = comando desconocido { $command } (pruebe help)
cli-needs-argument = { $command } necesita un argumento
cli-creating = creando { $path }
cli-opening = abriendo { $path }
cli-insecure = aviso: --insecure: no se comprueba el certificado del servidor; cualquiera en la ruta de red puede hacerse pasar por { $host } y leer o cambiar esta sesión, contraseñas y archivos incluidos
cli-access-anonymous-off = acceso: inicios de sesión anónimos rechazados
cli-access-anonymous-read = acceso: anónimo, solo lectura, en toda la raíz
cli-access-anonymous-write = acceso: anónimo, lectura y escritura, en toda la raíz
cli-access-user-write = acceso: usuario { $name }, lectura y escritura, en { $home }
cli-access-user-read = acceso: usuario { $name }, solo lectura, en { $home }
cli-root-missing = el directorio raíz { $path } no existe (solo se crea el ftp-root por omisión; créelo o corrija --root)
cli-bad-listen = --listen { $value }: { $error } (escriba DIRECCIÓN:PUERTO, HOST:PUERTO o un PUERTO)
cli-starting = iniciando el servidor
cli-nofile-raised = archivos abiertos: límite elevado de { $from } a { $to }
cli-nofile-capped = aviso: los archivos abiertos están limitados a { $limit }: unas { $sessions } sesiones a la vez, no las { $max } de --max-connections; eleve el límite duro (ulimit -Hn, o LimitNOFILE= en una unidad systemd)
cli-x1-bytes-in = { $bytes } bytes -> { $dest } en { $secs } s ({ $rate })
cli-x1-interrupted = interrumpido
cli-x1-is-directory = { $path } es un directorio
cli-x1-resume-larger = no se puede reanudar: { $dest } ({ $have } bytes) es mayor que { $src } ({ $size } bytes)
cli-x1-complete = { $dest } ya está completo ({ $bytes } bytes)
cli-x1-many-need-dir = varios archivos van a un directorio o a -: { $dest } no es un directorio
cli-x1-put-many-need-dir = varios archivos van a una URL de directorio, terminada en /
cli-x1-stdin-alone = la entrada estándar (-) se sube sola, a una URL que nombre el archivo
cli-x1-resume-needs-file = -c necesita un archivo, no la entrada ni la salida estándar
cli-x1-no-match = ningún archivo remoto coincide con { $pattern }
cli-x1-rm-top = no se elimina el directorio superior "{ $path }"
cli-x1-failed-count = fallaron { $failed } de { $total }
cli-x1-writing = escribiendo { $path }
cli-x1-writing-stdout = escribiendo en la salida estándar
cli-x1-reading-stdin = leyendo la entrada estándar
