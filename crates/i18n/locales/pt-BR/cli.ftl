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
cli-names-guessed = nota: { $count } nomes não são UTF-8 e são exibidos como { $charsets } por suposição; --charset { $charset } fixa isso, --raw mostra os bytes
cli-users-reloaded = usuários recarregados: { $count } usuários nomeados (sessões já conectadas continuam)
cli-users-reload-failed = usuários não recarregados, a lista anterior continua: { $error }
cli-x2-bad-password = a senha na URL não está escrita corretamente: codifique / : @ # % e espaços com porcentagem (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } não está no servidor de { $from }: uma renomeação não move um arquivo para outro servidor (use get e depois put)
cli-x2-mirror-failed = falhou: { $path }: { $error }
cli-x2-mirror-failures = espelho incompleto: { $count } falharam (cada um indicado acima); execute de novo para tentar outra vez e retomar downloads parciais
cli-x2-reconnecting = a conexão foi perdida; conectando de novo
cli-x2-check-dropped = { $what }: o servidor derrubou a conexão (as verificações continuam em uma nova)
cli-x2-check-cleanup-failed = não foi possível remover o diretório temporário { $path }: { $error }
cli-metrics-serving = métricas: http://{ $addr }/metrics, saúde: http://{ $addr }/health
