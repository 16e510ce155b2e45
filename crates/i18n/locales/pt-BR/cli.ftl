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
cli-x3-password-prompt = Senha de { $user } em { $host }:
cli-x3-password-unread = ao ler a senha
cli-x3-passwd-new = Nova senha:
cli-x3-passwd-again = A mesma senha de novo:
cli-x3-passwd-mismatch = as duas senhas são diferentes; nada foi impresso
cli-x3-passwd-empty = senha vazia
cli-x3-interrupted = { $command }: interrompido
cli-x3-reconnecting = a conexão não voltou a sincronizar; conectando de novo
cli-x3-mv-usage = mv precisa de dois nomes: mv ANTIGO NOVO
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = diretório local: { $path }
cli-x3-local-command-failed = ao executar o comando local
cli-x3-password-no-terminal = não há terminal para pedir a senha de { $user } em { $host }: enviando uma vazia (informe-a com -u { $user }:SENHA ou em ~/.netrc)
