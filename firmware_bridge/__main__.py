from firmware_bridge.cli import main

raise SystemExit(main())
