;; vllm-config-lsp for Emacs with eglot (built in since Emacs 29; on Emacs 28 install the
;; eglot and yaml-mode packages, e.g. Debian's elpa-eglot and elpa-yaml-mode).
;; Eglot runs one server per major mode, so this makes vllm-config-lsp the server of YAML,
;; shell scripts, Dockerfiles and Markdown; it decides which files start vLLM or are vLLM
;; configs and stays silent on the others.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((yaml-mode yaml-ts-mode sh-mode bash-ts-mode dockerfile-mode
                  dockerfile-ts-mode markdown-mode)
                 . ("vllm-config-lsp" "--stdio"))))
(dolist (hook '(yaml-mode-hook yaml-ts-mode-hook sh-mode-hook bash-ts-mode-hook
                dockerfile-mode-hook dockerfile-ts-mode-hook markdown-mode-hook))
  (add-hook hook #'eglot-ensure))
;; Settings, e.g. in the project's .dir-locals.el:
;;   ((nil (eglot-workspace-configuration
;;          . (:vllmConfig (:vllmVersion "0.33.0" :disabledCodes ["VC900"])))))
