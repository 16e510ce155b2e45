# ข้อความบรรทัดคำสั่งของ babelftp ภาษาไทย
# ชื่อ URL ตัวเลข และรหัสตอบกลับเป็นอาร์กิวเมนต์และจะไม่ถูกแปล

cli-error = babelftp: ข้อผิดพลาด: { $error }
cli-bytes-to = { $bytes } ไบต์ -> { $dest }
cli-mirror-summary = คัดลอก { $copied } รายการ ({ $bytes } ไบต์) ไม่เปลี่ยนแปลง { $unchanged } รายการ ลบ { $deleted } รายการ
cli-serving = babelftp กำลังให้บริการ { $root } ที่ { $url }
cli-connect-hint = เชื่อมต่อด้วยไคลเอนต์ FTP ใดก็ได้โดยใช้ชื่อผู้ใช้ "anonymous" (อ่านอย่างเดียว) เช่น: { $example }
cli-stopped = babelftp หยุดทำงานแล้ว
cli-connecting = กำลังเชื่อมต่อกับ { $host }
cli-refused = เซิร์ฟเวอร์ปฏิเสธ: { $reply }
cli-url-names-no-file = URL ไม่ได้ระบุไฟล์
cli-bad-url = URL ไม่ถูกต้อง { $url }
cli-unknown-charset = ไม่รู้จักชุดอักขระ { $charset }
cli-charset-guessed = ชุดอักขระ: { $charset } (คาดเดาจากชื่อ { $count } รายการ)
cli-charset-remembered = ชุดอักขระ: { $charset } (จดจำไว้สำหรับเซิร์ฟเวอร์นี้)
cli-charset-explicit = ชุดอักขระ: { $charset } (จาก --charset)
cli-unknown-command = ไม่รู้จักคำสั่ง { $command } (ลองใช้ help)
cli-needs-argument = { $command } ต้องมีอาร์กิวเมนต์
cli-creating = กำลังสร้าง { $path }
cli-opening = กำลังเปิด { $path }
cli-insecure = คำเตือน: --insecure: ไม่ตรวจสอบใบรับรองของเซิร์ฟเวอร์ ใครก็ตามบนเส้นทางเครือข่ายสามารถปลอมเป็น { $host } และอ่านหรือแก้ไขเซสชันนี้ได้ รวมถึงรหัสผ่านและไฟล์
cli-access-anonymous-off = การเข้าถึง: ปฏิเสธการเข้าสู่ระบบแบบไม่ระบุชื่อ
cli-access-anonymous-read = การเข้าถึง: ไม่ระบุชื่อ อ่านอย่างเดียว ทั้งราก
cli-access-anonymous-write = การเข้าถึง: ไม่ระบุชื่อ อ่านและเขียน ทั้งราก
cli-access-user-write = การเข้าถึง: ผู้ใช้ { $name } อ่านและเขียน ใน { $home }
cli-access-user-read = การเข้าถึง: ผู้ใช้ { $name } อ่านอย่างเดียว ใน { $home }
cli-root-missing = ไม่มีไดเรกทอรีราก { $path } (สร้างให้เฉพาะ ftp-root ค่าเริ่มต้น โปรดสร้างเองหรือแก้ --root)
cli-bad-listen = --listen { $value }: { $error } (เขียน ที่อยู่:พอร์ต โฮสต์:พอร์ต หรือพอร์ต)
cli-starting = กำลังเริ่มเซิร์ฟเวอร์
cli-nofile-raised = ไฟล์ที่เปิด: เพิ่มขีดจำกัดจาก { $from } เป็น { $to }
cli-nofile-capped = คำเตือน: ไฟล์ที่เปิดถูกจำกัดที่ { $limit }: รองรับราว { $sessions } เซสชันพร้อมกัน ไม่ใช่ { $max } ตาม --max-connections; โปรดเพิ่มขีดจำกัดแบบแข็ง (ulimit -Hn หรือ LimitNOFILE= ในยูนิต systemd)
cli-x3-password-prompt = รหัสผ่านของ { $user } ที่ { $host }:
cli-x3-password-unread = ขณะอ่านรหัสผ่าน
cli-x3-passwd-new = รหัสผ่านใหม่:
cli-x3-passwd-again = รหัสผ่านเดิมอีกครั้ง:
cli-x3-passwd-mismatch = รหัสผ่านทั้งสองไม่ตรงกัน ไม่ได้พิมพ์สิ่งใดออกมา
cli-x3-passwd-empty = รหัสผ่านว่าง
cli-x3-interrupted = { $command }: ถูกขัดจังหวะ
cli-x3-reconnecting = การเชื่อมต่อไม่กลับมาตรงกัน กำลังเชื่อมต่อใหม่
cli-x3-mv-usage = mv ต้องมีสองชื่อ: mv ชื่อเดิม ชื่อใหม่
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = ไดเรกทอรีในเครื่อง: { $path }
cli-x3-local-command-failed = ขณะรันคำสั่งในเครื่อง
cli-x3-password-no-terminal = ไม่มีเทอร์มินัลสำหรับถามรหัสผ่านของ { $user } ที่ { $host }: จะส่งรหัสผ่านว่าง (ระบุด้วย -u { $user }:PASSWORD หรือใน ~/.netrc)
