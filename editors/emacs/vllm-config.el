;; vllm-config-lsp for Emacs with eglot (built in since Emacs 29; on Emacs 28 install the
;; eglot and yaml-mode packages, e.g. Debian's elpa-eglot and elpa-yaml-mode).
;; Eglot runs one server per major mode, so this makes vllm-config-lsp the YAML server;
;; it decides which YAML files are vLLM configs and stays silent on the others.
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((yaml-mode yaml-ts-mode) . ("vllm-config-lsp" "--stdio"))))
(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'yaml-ts-mode-hook #'eglot-ensure)
;; Settings, e.g. in the project's .dir-locals.el:
;;   ((nil (eglot-workspace-configuration
;;          . (:vllmConfig (:vllmVersion "0.33.0" :disabledCodes ["VC900"])))))
