@echo off
rem rag-console, the headless CLI, as shipped inside the Windows package: the app's own
rem Electron runs it as plain Node (ELECTRON_RUN_AS_NODE), so no separate Node is needed.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\RAG Console.exe" "%~dp0..\app.asar\out\main\cli.js" %*
exit /b %ERRORLEVEL%
