# babelftp 명령줄 메시지(한국어).
# 이름, URL, 숫자, 응답 코드는 인수이며 번역하지 않습니다.

cli-error = babelftp: 오류: { $error }
cli-bytes-to = { $bytes }바이트 -> { $dest }
cli-mirror-summary = 복사 { $copied }개({ $bytes }바이트), 변경 없음 { $unchanged }개, 삭제 { $deleted }개
cli-serving = babelftp가 { $root } 디렉터리를 { $url } 주소로 제공합니다
cli-connect-hint = 어떤 FTP 클라이언트로든 "anonymous" 계정으로 접속할 수 있습니다(읽기 전용). 예: { $example }
cli-stopped = babelftp를 중지했습니다.
cli-connecting = { $host }에 연결하는 중
cli-refused = 서버가 거부했습니다: { $reply }
cli-url-names-no-file = URL에 파일 이름이 없습니다
cli-bad-url = 잘못된 URL { $url }
cli-unknown-charset = 알 수 없는 문자 집합 { $charset }
cli-charset-guessed = 문자 집합: { $charset }(이름 { $count }개로 추정)
cli-charset-remembered = 문자 집합: { $charset }(이 서버용으로 기억됨)
cli-charset-explicit = 문자 집합: { $charset }(--charset으로 지정)
cli-unknown-command = 알 수 없는 명령 { $command }(help 참고)
cli-needs-argument = { $command } 명령에는 인수가 필요합니다
cli-creating = { $path } 생성 중
cli-opening = { $path } 여는 중
cli-insecure = 경고: --insecure: 서버 인증서를 확인하지 않습니다. 네트워크 경로상의 누구든 { $host }(으)로 가장하여 비밀번호와 파일을 포함한 이 세션을 읽거나 바꿀 수 있습니다
cli-access-anonymous-off = 접근: 익명 로그인 거부
cli-access-anonymous-read = 접근: 익명, 읽기 전용, 루트 전체
cli-access-anonymous-write = 접근: 익명, 읽기 및 쓰기, 루트 전체
cli-access-user-write = 접근: 사용자 { $name }, 읽기 및 쓰기, { $home }
cli-access-user-read = 접근: 사용자 { $name }, 읽기 전용, { $home }
cli-root-missing = 루트 디렉터리 { $path }이(가) 없습니다 (기본 ftp-root만 만들어집니다. 만들거나 --root를 고치세요)
cli-bad-listen = --listen { $value }: { $error } (주소:포트, 호스트:포트 또는 포트를 쓰세요)
cli-starting = 서버 시작
cli-nofile-raised = 열린 파일: 한도를 { $from }에서 { $to }(으)로 올렸습니다
cli-nofile-capped = 경고: 열린 파일은 { $limit }개로 제한됩니다. 동시 세션은 --max-connections의 { $max }개가 아니라 약 { $sessions }개입니다. 하드 한도를 올리십시오 (ulimit -Hn 또는 systemd 유닛의 LimitNOFILE=)
cli-x1-bytes-in = { $bytes }바이트 -> { $dest } ({ $secs }초, { $rate })
cli-x1-interrupted = 중단됨
cli-x1-is-directory = { $path }은(는) 디렉터리입니다
cli-x1-resume-larger = 이어받을 수 없습니다: { $dest }({ $have }바이트)이(가) { $src }({ $size }바이트)보다 큽니다
cli-x1-complete = { $dest }은(는) 이미 완료되었습니다({ $bytes }바이트)
cli-x1-many-need-dir = 여러 파일은 디렉터리나 -로 저장됩니다: { $dest }은(는) 디렉터리가 아닙니다
cli-x1-put-many-need-dir = 여러 파일은 /로 끝나는 디렉터리 URL로 보냅니다
cli-x1-stdin-alone = 표준 입력(-)은 파일 이름을 지정한 URL로 단독 업로드됩니다
cli-x1-resume-needs-file = -c에는 표준 입출력이 아닌 파일이 필요합니다
cli-x1-no-match = { $pattern }에 맞는 원격 파일이 없습니다
cli-x1-rm-top = 최상위 디렉터리 "{ $path }"은(는) 삭제하지 않습니다
cli-x1-failed-count = { $total }개 중 { $failed }개 실패
cli-x1-writing = { $path } 쓰는 중
cli-x1-writing-stdout = 표준 출력에 쓰는 중
cli-x1-reading-stdin = 표준 입력 읽는 중
