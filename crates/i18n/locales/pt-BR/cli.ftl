# Mensagens da linha de comando do babelftp, em português do Brasil.
# Nomes, URLs, números e códigos de resposta são argumentos e nunca são traduzidos.

cli-error = babelftp: erro: { $error }
cli-bytes-to = { $bytes } bytes transferidos para { $dest }
cli-mirror-summary = { $copied } copiados ({ $bytes } bytes), { $unchanged } inalterados, { $deleted } excluídos
cli-serving = babelftp servindo { $root } em { $url }
cli-connect-hint = Conecte-se com qualquer cliente FTP como "anonymous" (somente leitura), por exemplo: { $example }
cli-stopped = babelftp encerrado.
cli-connecting = conectando a { $host }
cli-refused = o servidor recusou: { $reply }
cli-url-names-no-file = a URL não indica nenhum arquivo
cli-bad-url = URL inválida { $url }
cli-unknown-charset = conjunto de caracteres desconhecido { $charset }
cli-charset-guessed = conjunto de caracteres: { $charset } (deduzido de { $count } nomes)
cli-charset-remembered = conjunto de caracteres: { $charset } (lembrado para este servidor)
cli-charset-explicit = conjunto de caracteres: { $charset } (de --charset)
cli-unknown-command = comando desconhecido { $command } (tente help)
cli-needs-argument = { $command } precisa de um argumento
cli-creating = criando { $path }
cli-opening = abrindo { $path }
cli-insecure = aviso: --insecure: o certificado do servidor não é verificado; qualquer um no caminho da rede pode se passar por { $host } e ler ou alterar esta sessão, inclusive senhas e arquivos
cli-access-anonymous-off = acesso: logins anônimos recusados
cli-access-anonymous-read = acesso: anônimo, somente leitura, em toda a raiz
cli-access-anonymous-write = acesso: anônimo, leitura e escrita, em toda a raiz
cli-access-user-write = acesso: usuário { $name }, leitura e escrita, em { $home }
cli-access-user-read = acesso: usuário { $name }, somente leitura, em { $home }
cli-root-missing = o diretório raiz { $path } não existe (só o ftp-root padrão é criado; crie-o ou corrija --root)
cli-bad-listen = --listen { $value }: { $error } (escreva ENDEREÇO:PORTA, HOST:PORTA ou uma PORTA)
cli-starting = iniciando o servidor
cli-nofile-raised = arquivos abertos: limite elevado de { $from } para { $to }
cli-nofile-capped = aviso: os arquivos abertos estão limitados a { $limit }: cerca de { $sessions } sessões de cada vez, não as { $max } de --max-connections; aumente o limite rígido (ulimit -Hn, ou LimitNOFILE= numa unidade systemd)
cli-x1-bytes-in = { $bytes } bytes -> { $dest } em { $secs } s ({ $rate })
cli-x1-interrupted = interrompido
cli-x1-is-directory = { $path } é um diretório
cli-x1-resume-larger = não é possível retomar: { $dest } ({ $have } bytes) é maior que { $src } ({ $size } bytes)
cli-x1-complete = { $dest } já está completo ({ $bytes } bytes)
cli-x1-many-need-dir = vários arquivos vão para um diretório ou para -: { $dest } não é um diretório
cli-x1-put-many-need-dir = vários arquivos vão para uma URL de diretório, terminada em /
cli-x1-stdin-alone = a entrada padrão (-) é enviada sozinha, para uma URL que nomeie o arquivo
cli-x1-resume-needs-file = -c precisa de um arquivo, não da entrada ou saída padrão
cli-x1-no-match = nenhum arquivo remoto corresponde a { $pattern }
cli-x1-rm-top = recusado remover o diretório superior "{ $path }"
cli-x1-failed-count = { $failed } de { $total } falharam
cli-x1-writing = gravando { $path }
cli-x1-writing-stdout = gravando na saída padrão
cli-x1-reading-stdin = lendo a entrada padrão
