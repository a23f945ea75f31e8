;;; e2e.el --- headless Emacs + eglot end-to-end check of vllm-config-lsp  -*- lexical-binding: t -*-
;; Run by editors/run.py: emacs --batch -l editors/emacs/e2e.el < <(echo)
;; It loads the README's snippet (SNIPPET) as a user's init file would, visits FILE, lets
;; the command loop's post-command-hook start eglot (what `eglot-ensure' waits for), waits
;; for the server's diagnostic, then runs M-x eglot-code-actions at the diagnostic: the
;; minibuffer reads a bare RET from standard input, which picks the default (the server's
;; preferred quick fix). It waits for the diagnostic to go away and saves the file.
;; Env: SNIPPET, FILE (edited in place), OUT_JSON, TIMEOUT_S (default 20).
(require 'json)
(require 'subr-x)

(defvar e2e-out (getenv "OUT_JSON"))
(defvar e2e-timeout (string-to-number (or (getenv "TIMEOUT_S") "20")))
(defvar e2e-result (list (cons 'ok :json-false) (cons 'emacs emacs-version)))

(defun e2e-finish (code)
  (with-temp-file e2e-out (insert (json-encode e2e-result)))
  (when (featurep 'eglot)
    (ignore-errors
      (dolist (servers (hash-table-values eglot--servers-by-project))
        (dolist (server servers) (eglot-shutdown server)))))
  (kill-emacs code))

(defun e2e-fail (msg)
  (push (cons 'error msg) e2e-result)
  (e2e-finish 1))

(defun e2e-wait (pred what)
  "Run the event loop (process output, timers) until PRED holds or time runs out."
  (let ((deadline (+ (float-time) e2e-timeout)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (unless (funcall pred) (e2e-fail (format "timeout waiting for %s" what)))))

(condition-case err
    (let ((t0 (float-time)))
      (load (getenv "SNIPPET") nil t)
      (require 'yaml-mode)
      (require 'eglot)
      (advice-add 'eglot--read-execute-code-action :before
                  (lambda (actions &rest _)
                    (push (cons 'offered (mapcar (lambda (a) (plist-get a :title)) actions))
                          e2e-result)))
      (find-file (getenv "FILE"))
      (push (cons 'major_mode (symbol-name major-mode)) e2e-result)
      (run-hooks 'post-command-hook)  ; the command loop would, after `find-file'
      (e2e-wait (lambda () (flymake-diagnostics)) "diagnostics")
      (push (cons 'first_diag_ms (* 1000 (- (float-time) t0))) e2e-result)
      (push (cons 'diagnostics
                  (mapcar (lambda (d)
                            (let ((beg (flymake-diagnostic-beg d))
                                  (end (flymake-diagnostic-end d)))
                              `((line . ,(1- (line-number-at-pos beg)))
                                (col . ,(save-excursion (goto-char beg) (current-column)))
                                (end_line . ,(1- (line-number-at-pos end)))
                                (end_col . ,(save-excursion (goto-char end) (current-column)))
                                (type . ,(symbol-name (flymake-diagnostic-type d)))
                                (text . ,(flymake-diagnostic-text d)))))
                          (flymake-diagnostics)))
            e2e-result)
      (let ((before (buffer-string)))
        (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
        ;; M-x eglot-code-actions from the keyboard: the menu is a completing-read
        (let ((last-nonmenu-event ?\r))
          (call-interactively #'eglot-code-actions))
        (e2e-wait (lambda () (not (equal before (buffer-string)))) "the code action edit"))
      (push (cons 'line_after (buffer-substring-no-properties
                               (line-beginning-position) (line-end-position)))
            e2e-result)
      (e2e-wait (lambda () (null (flymake-diagnostics))) "diagnostics to clear")
      (save-buffer)
      (push (cons 'total_ms (* 1000 (- (float-time) t0))) e2e-result)
      (setf (alist-get 'ok e2e-result) t)
      (e2e-finish 0))
  (error (e2e-fail (error-message-string err))))
