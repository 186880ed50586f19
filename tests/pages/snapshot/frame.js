document.getElementById("inside").textContent = "Platform B is step-free";
